import { runGroup } from '../helpers/group';

runGroup('http');
