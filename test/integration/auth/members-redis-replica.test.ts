import { membersReplicaSuite } from '../../helpers/members-replica-suite.js';
import { redisReplicas } from '../adapters/redis-replicas.js';

/* Merchant members (invite, removal) across two replicas on real Redis, each behind its own cache. */
membersReplicaSuite('Redis behind a cache per replica', redisReplicas('members-replica').cached);
