import { runGroup } from '../helpers/group';

runGroup('docs');
