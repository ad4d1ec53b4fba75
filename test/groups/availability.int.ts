import { runGroup } from '../helpers/group';

runGroup('availability');
