import { runGroup } from '../helpers/group';

runGroup('audit');
