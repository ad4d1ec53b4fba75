import { runGroup } from '../helpers/group';

runGroup('graphql');
