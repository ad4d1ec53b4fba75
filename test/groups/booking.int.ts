import { runGroup } from '../helpers/group';

runGroup('booking');
