import { runGroup } from '../helpers/group';

runGroup('webhook');
