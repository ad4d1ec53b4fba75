import { runGroup } from '../helpers/group';

runGroup('payment');
