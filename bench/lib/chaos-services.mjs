// The chaos bench's own Redis, Kafka broker and ClickHouse server: deploy/local's scripts run with a
// private SWITCHYARD_RUN_DIR and free ports, so the shared servers on 6379/9092/8123 (other tests use
// them) are never touched. Each server can be SIGKILLed (and started again by its script, which
// waits until it answers) or SIGSTOPped/SIGCONTed by the pid its script recorded.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.mjs';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

/** Distinct free loopback ports (asked for together so two are never the same). */
async function freePorts(count) {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

const pidFiles = { redis: 'redis/redis.pid', kafka: 'kafka/kafka.pid', clickhouse: 'clickhouse/clickhouse.pid' };

/**
 * Starts the three servers under `runDir`; returns their URLs and a controller per server:
 * `kill()` (SIGKILL, waits for the exit), `start()` (the script: returns once it answers),
 * `stop()` / `cont()` (SIGSTOP / SIGCONT), `shutdown()` (the script's graceful stop).
 */
export async function startPrivateServices(runDir) {
  const [redisPort, kafkaPort, controllerPort, httpPort, tcpPort] = await freePorts(5);
  const env = {
    ...process.env,
    SWITCHYARD_RUN_DIR: runDir,
    REDIS_PORT: String(redisPort),
    // Acknowledged writes survive a SIGKILL (written before the reply; fsync once a second).
    REDIS_APPENDONLY: 'yes',
    KAFKA_PORT: String(kafkaPort),
    KAFKA_CONTROLLER_PORT: String(controllerPort),
    KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
    CLICKHOUSE_HTTP_PORT: String(httpPort),
    CLICKHOUSE_TCP_PORT: String(tcpPort),
  };
  // The broker's jars and readiness probe from the shared run dir when they are there: a private run
  // dir would otherwise fetch the same 45 MB from Maven again.
  // The shared run dir is deploy/local/lib/common.sh's RUN_DIR, asked of it rather than derived again here.
  const { stdout } = await run('bash', ['-c', '. "$1" && printf %s "$RUN_DIR"', 'run-dir', join(root, 'deploy/local/lib/common.sh')]);
  const sharedKafka = join(stdout, 'kafka');
  for (const part of ['libs', 'probe']) {
    if (existsSync(join(sharedKafka, part)) && !existsSync(join(runDir, 'kafka', part)))
      cpSync(join(sharedKafka, part), join(runDir, 'kafka', part), { recursive: true });
  }
  const script = async (service, action) => {
    try {
      await run('bash', [join(root, `deploy/local/${service}.sh`), action], { env, timeout: 240_000 });
    } catch (error) {
      throw new Error(`deploy/local/${service}.sh ${action} failed:\n${error.stderr ?? ''}${error.stdout ?? ''}`, { cause: error });
    }
  };
  const pidOf = (service) => Number(readFileSync(join(runDir, pidFiles[service]), 'utf8').trim());
  const control = (service) => ({
    name: service,
    pid: () => pidOf(service),
    start: () => script(service, 'start'),
    shutdown: () => script(service, 'stop'),
    async kill() {
      const pid = pidOf(service);
      process.kill(pid, 'SIGKILL');
      // Gone once kill -0 fails (it is not our child: no exit event to await).
      for (let i = 0; i < 600; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`${service} (pid ${pid}) still alive 30 s after SIGKILL`);
    },
    stop: () => process.kill(pidOf(service), 'SIGSTOP'),
    cont: () => process.kill(pidOf(service), 'SIGCONT'),
  });
  const services = { redis: control('redis'), kafka: control('kafka'), clickhouse: control('clickhouse') };
  const started = await Promise.allSettled([services.redis.start(), services.clickhouse.start(), services.kafka.start()]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    // Nothing left running behind a failed start: stop what did start (by its script and pid file).
    await Promise.allSettled(Object.values(services).map((service) => service.shutdown()));
    killLeftovers(runDir);
    throw failed.reason;
  }
  return {
    services,
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    kafkaBrokers: `127.0.0.1:${kafkaPort}`,
    clickhouseUrl: `http://127.0.0.1:${httpPort}`,
    async shutdown() {
      for (const service of Object.values(services)) {
        // A server left stopped by an interrupted run must be continued before it can exit.
        try {
          service.cont();
        } catch (error) {
          // No pid file or no such process: the server is not running, nothing to continue.
          if (error?.code !== 'ENOENT' && error?.code !== 'ESRCH') throw error;
        }
      }
      await Promise.allSettled(Object.values(services).map((service) => service.shutdown()));
      killLeftovers(runDir);
    },
  };
}

/**
 * SIGKILLs any server still running from this run dir (its path is in their command lines): a
 * script that recorded the wrong pid (a start that gave up while the server came up) cannot stop it.
 */
function killLeftovers(runDir) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let commandLine = '';
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (commandLine.includes(runDir)) process.kill(Number(entry), 'SIGKILL');
  }
}
