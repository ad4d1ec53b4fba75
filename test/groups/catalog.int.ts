import { runGroup } from '../helpers/group';

runGroup('catalog');
