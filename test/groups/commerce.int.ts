import { runGroup } from '../helpers/group';

runGroup('commerce');
