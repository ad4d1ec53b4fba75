import { runGroup } from '../helpers/group';

runGroup('notification');
