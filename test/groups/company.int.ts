import { runGroup } from '../helpers/group';

runGroup('company');
