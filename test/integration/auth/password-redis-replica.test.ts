import { passwordReplicaSuite } from '../../helpers/password-replica-suite.js';
import { redisReplicas } from '../adapters/redis-replicas.js';

/* Password change and reset across two replicas on real Redis, each behind its own cache. */
passwordReplicaSuite('Redis behind a cache per replica', redisReplicas('password-replica').cached);
