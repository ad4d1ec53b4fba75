import { runGroup } from '../helpers/group';

runGroup('fuzz');
