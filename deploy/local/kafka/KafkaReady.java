import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;

/**
 * Readiness probe for deploy/local/kafka.sh: succeeds once the broker answers a metadata request
 * (describeCluster + listTopics), which is later than "the port accepts connections" (the socket
 * server binds before the broker has caught up with the KRaft metadata log).
 *
 * Usage: java -cp 'libs/*:probe' KafkaReady BOOTSTRAP TIMEOUT_MS [BROKER_PID]
 * Exit codes: 0 ready, 1 not ready before the deadline, 2 the broker process died.
 * It retries inside one JVM because a JVM start costs about a second.
 */
public final class KafkaReady {
  public static void main(String[] args) throws Exception {
    String bootstrap = args.length > 0 ? args[0] : "127.0.0.1:9092";
    long timeoutMs = args.length > 1 ? Long.parseLong(args[1]) : 30_000L;
    long brokerPid = args.length > 2 ? Long.parseLong(args[2]) : -1L;
    long deadline = System.currentTimeMillis() + timeoutMs;

    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, "switchyard-local-ready");
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
    props.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "100");
    props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");

    String lastError = "no attempt";
    try (Admin admin = Admin.create(props)) {
      while (System.currentTimeMillis() < deadline) {
        if (brokerPid > 0 && !ProcessHandle.of(brokerPid).map(ProcessHandle::isAlive).orElse(false)) {
          System.err.println("broker process " + brokerPid + " is gone");
          System.exit(2);
        }
        try {
          DescribeClusterResult cluster = admin.describeCluster();
          int nodes = cluster.nodes().get(5, TimeUnit.SECONDS).size();
          String clusterId = cluster.clusterId().get(5, TimeUnit.SECONDS);
          int topics = admin.listTopics().names().get(5, TimeUnit.SECONDS).size();
          if (nodes > 0) {
            System.out.println("ready cluster=" + clusterId + " nodes=" + nodes + " topics=" + topics);
            System.exit(0);
          }
          lastError = "describeCluster returned no nodes";
        } catch (Exception e) {
          Throwable cause = e.getCause() != null ? e.getCause() : e;
          lastError = cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
        Thread.sleep(250);
      }
    }
    System.err.println("not ready after " + timeoutMs + " ms: " + lastError);
    System.exit(1);
  }
}
