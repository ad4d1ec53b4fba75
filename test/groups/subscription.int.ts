import { runGroup } from '../helpers/group';

runGroup('subscription');
