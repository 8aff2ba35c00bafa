#!/usr/bin/env bash
# Redis, Kafka and ClickHouse with TLS and credentials, for the TLS tests and for trying the
# managed-service settings locally: deploy/local/secure-services.sh {start|stop|status|env|tls}
#
# Separate instances on their own ports (the plain services on 6379/9092/8123 are not touched),
# all on 127.0.0.1, ports from SECURE_BASE_PORT (B = 16440):
#   Redis       TLS B (plain port off), ACL user `switchyard`, user `default` disabled; client
#               certificates optional (mutual TLS works, is not required)
#   Kafka       SASL_SSL B+1 (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512: user `switchyard`), SSL B+7 with
#               client certificates required, broker-internal PLAINTEXT B+2, controller B+3
#   ClickHouse  HTTPS B+4, HTTP B+5 (ping only), native B+6; user `switchyard` with a password
# A throwaway CA, the server certificate (127.0.0.1 / localhost), a client certificate and a second,
# unrelated CA (for "wrong CA" tests) are made with openssl under $SECURE_DIR/tls; the passwords are
# random, kept in $SECURE_DIR/secrets.env. Everything persists across stop/start; delete the directory
# to start over.
# SECURE_DIR is one per machine and port base, not one per checkout:
# ${XDG_STATE_HOME:-~/.local/state}/switchyard/secure-<base>. Like the plain services on their fixed
# ports, an instance another checkout started is reused; with the state in the checkout, its
# passwords were unknown to the next checkout, which then refused the port as taken.
# `env` prints the KEY=VALUE lines a Switchyard process needs to use them (SECURE_* for the tests).
# `tls` only makes the certificates and prints their directory (for redis-cluster.sh's REDIS_CLUSTER_TLS_DIR).
# status exits 0 when all three answer, 3 otherwise.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# kafka.sh gives the toolchain, jars and readiness probe (under $SWITCHYARD_RUN_DIR/kafka).
# shellcheck source=kafka.sh
. "$HERE/kafka.sh"
LOG_TAG=secure

BASE="${SECURE_BASE_PORT:-16440}"
REDIS_TLS_PORT=$BASE
KAFKA_SASL_PORT=$((BASE + 1))
KAFKA_INTERNAL_PORT=$((BASE + 2))
KAFKA_CTRL_PORT=$((BASE + 3))
KAFKA_SSL_PORT=$((BASE + 7))
CH_HTTPS_PORT=$((BASE + 4))
CH_HTTP_PORT=$((BASE + 5))
CH_TCP_PORT=$((BASE + 6))
SDIR="${SECURE_DIR:-${XDG_STATE_HOME:-${HOME:?HOME or SECURE_DIR must be set}/.local/state}/switchyard/secure-$BASE}"
# shellcheck disable=SC2034 # read by with_lock (lib/common.sh)
LOCK_DIR="$SDIR"
TLS="$SDIR/tls"
SECRETS="$SDIR/secrets.env"
USER_NAME=switchyard

# ---------------------------------------------------------------- certificates and passwords

make_tls() {
  [ -s "$TLS/client.key" ] && [ -s "$TLS/other-ca.pem" ] && return 0
  need_cmd openssl openssl
  log "generating a throwaway CA and certificates in $TLS ..."
  rm -rf "$TLS"
  mkdir -p "$TLS"
  (
    cd "$TLS"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Switchyard local test CA" -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Unrelated test CA" -keyout other-ca.key -out other-ca.pem 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 -extfile server.ext -out server.pem 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$USER_NAME" -keyout client.key -out client.csr 2>/dev/null
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 -extfile client.ext -out client.pem 2>/dev/null
    # Kafka's PEM key store: the PKCS#8 key (unencrypted) followed by the certificate chain.
    cat server.key server.pem ca.pem >server-keystore.pem
    rm -f ./*.csr ./*.ext ./*.srl
    chmod 600 ./*.key server-keystore.pem
  ) || die "openssl failed to generate the test certificates"
}

make_secrets() {
  if [ ! -s "$SECRETS" ]; then
    mkdir -p "$SDIR"
    # A new password means the Kafka SCRAM users must be formatted again: drop its data.
    rm -rf "$SDIR/kafka/data"
    umask 077
    {
      echo "REDIS_SECRET=$(openssl rand -hex 16)"
      echo "KAFKA_SECRET=$(openssl rand -hex 16)"
      echo "CLICKHOUSE_SECRET=$(openssl rand -hex 16)"
    } >"$SECRETS"
  fi
  # shellcheck disable=SC1090
  . "$SECRETS"
}

# ---------------------------------------------------------------- Redis (TLS port, ACL user)

redis_cli() {
  timeout 3 redis-cli --tls --cacert "$TLS/ca.pem" -h 127.0.0.1 -p "$REDIS_TLS_PORT" --user "$USER_NAME" --pass "$REDIS_SECRET" --no-auth-warning "$@"
}
redis_ok() { [ "$(redis_cli ping 2>/dev/null)" = "PONG" ]; }

start_redis() {
  need_cmd redis-server redis-server
  need_cmd redis-cli redis-tools
  local dir="$SDIR/redis"
  if redis_ok; then log "redis TLS already answers on 127.0.0.1:$REDIS_TLS_PORT; reusing it"; return 0; fi
  port_open "$REDIS_TLS_PORT" && die "port 127.0.0.1:$REDIS_TLS_PORT is taken by something else; set SECURE_BASE_PORT"
  mkdir -p "$dir/data"
  umask 077
  cat >"$dir/redis.conf" <<EOF
# Generated by deploy/local/secure-services.sh; edits are overwritten on the next start.
bind 127.0.0.1
port 0
tls-port $REDIS_TLS_PORT
tls-cert-file $TLS/server.pem
tls-key-file $TLS/server.key
tls-ca-cert-file $TLS/ca.pem
tls-auth-clients optional
daemonize yes
pidfile $dir/redis.pid
logfile $dir/redis.log
dir $dir/data
save ""
appendonly no
user default off
user $USER_NAME on >$REDIS_SECRET ~* &* +@all
EOF
  log "starting redis-server (TLS) on 127.0.0.1:$REDIS_TLS_PORT ..."
  without_lock_fd redis-server "$dir/redis.conf" || die "redis-server failed to start; see $dir/redis.log"
  wait_until 30 "redis TLS PING on 127.0.0.1:$REDIS_TLS_PORT" "" "" "$dir/redis.log" -- redis_ok
}

stop_redis() {
  local dir="$SDIR/redis"
  stop_pid "$dir/redis.pid" redis-server redis-tls 30 || log "redis TLS not running"
}

# ---------------------------------------------------------------- Kafka (SASL_SSL, SSL)

KDIR="$SDIR/kafka"
KPATTERN="kafka.Kafka $KDIR/server.properties"

kafka_probe() {
  BOOTSTRAP="127.0.0.1:$KAFKA_INTERNAL_PORT" probe "$@"
}

write_kafka_config() {
  mkdir -p "$KDIR/data" "$KDIR/logs"
  umask 077
  cat >"$KDIR/server.properties" <<EOF
# Generated by deploy/local/secure-services.sh; edits are overwritten on the next start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CTRL_PORT
listeners=SASL_SSL://127.0.0.1:$KAFKA_SASL_PORT,SSL://127.0.0.1:$KAFKA_SSL_PORT,INTERNAL://127.0.0.1:$KAFKA_INTERNAL_PORT,CONTROLLER://127.0.0.1:$KAFKA_CTRL_PORT
advertised.listeners=SASL_SSL://127.0.0.1:$KAFKA_SASL_PORT,SSL://127.0.0.1:$KAFKA_SSL_PORT,INTERNAL://127.0.0.1:$KAFKA_INTERNAL_PORT
inter.broker.listener.name=INTERNAL
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL
log.dirs=$KDIR/data

ssl.keystore.type=PEM
ssl.keystore.location=$TLS/server-keystore.pem
ssl.truststore.type=PEM
ssl.truststore.location=$TLS/ca.pem
listener.name.ssl.ssl.client.auth=required
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$USER_NAME="$KAFKA_SECRET";
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;

auto.create.topics.enable=true
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
EOF
}

format_kafka() {
  [ -f "$KDIR/data/meta.properties" ] && return 0
  local id
  id="$(kafka_uuid)"
  log "formatting KRaft storage in $KDIR/data with the SCRAM users ..."
  tool_java "$DIR/tools.jsa" -cp "$LIBS/*" -Dlog4j2.level=OFF -Dlog4j2.statusLoggerLevel=OFF kafka.tools.StorageTool format --ignore-formatted \
    --cluster-id "$id" --config "$KDIR/server.properties" \
    --add-scram "SCRAM-SHA-256=[name=$USER_NAME,password=$KAFKA_SECRET]" \
    --add-scram "SCRAM-SHA-512=[name=$USER_NAME,password=$KAFKA_SECRET]" >/dev/null \
    || die "kafka-storage format --add-scram failed"
}

start_kafka() {
  ensure_toolchain
  ensure_libs
  ensure_probe
  local pid out
  if pid="$(pid_alive "$KDIR/kafka.pid" "$KPATTERN")"; then
    out="$(kafka_probe 60 "$pid")" || die "secure Kafka pid $pid runs but does not answer; see $KDIR/logs"
    log "Kafka SASL_SSL already running on 127.0.0.1:$KAFKA_SASL_PORT ($out); reusing it"
    return 0
  fi
  for port in "$KAFKA_SASL_PORT" "$KAFKA_SSL_PORT" "$KAFKA_INTERNAL_PORT" "$KAFKA_CTRL_PORT"; do
    port_open "$port" && die "port 127.0.0.1:$port is taken; set SECURE_BASE_PORT"
  done
  write_kafka_config
  format_kafka
  mark_start "$KDIR"
  rotate_log "$KDIR/logs/kafka.out"
  log "starting Kafka with SASL_SSL on 127.0.0.1:$KAFKA_SASL_PORT, SSL on $KAFKA_SSL_PORT ..."
  # shellcheck disable=SC2086
  pid="$(spawn_detached "$KDIR/logs/kafka.out" java ${SECURE_KAFKA_HEAP_OPTS:--Xms128m -Xmx384m} \
    -server -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dkafka.logs.dir="$KDIR/logs" -Dlog4j2.configurationFile="$SRC/log4j2.properties" \
    -cp "$LIBS/*" kafka.Kafka "$KDIR/server.properties")"
  echo "$pid" >"$KDIR/kafka.pid"
  if ! out="$(kafka_probe "$START_TIMEOUT" "$pid")"; then
    show_logs "$KDIR/logs/kafka.out:$KDIR/logs/server.log"
    die "secure Kafka did not answer within ${START_TIMEOUT}s"
  fi
  wait_until 30 "Kafka SASL_SSL port" "$KDIR/kafka.pid" "$KPATTERN" "$KDIR/logs/server.log" -- port_open "$KAFKA_SASL_PORT"
}

stop_kafka() {
  stop_pid "$KDIR/kafka.pid" "$KPATTERN" kafka-secure 60 || log "secure Kafka not running"
}

# ---------------------------------------------------------------- ClickHouse (HTTPS, password)

CDIR="$SDIR/clickhouse"

ch_ok() {
  [ "$(curl -fsS --max-time 2 --cacert "$TLS/ca.pem" "https://127.0.0.1:$CH_HTTPS_PORT/ping" 2>/dev/null)" = "Ok." ]
}

write_clickhouse_config() {
  mkdir -p "$CDIR/data" "$CDIR/tmp" "$CDIR/user_files" "$CDIR/format_schemas" "$CDIR/logs"
  umask 077
  cat >"$CDIR/config.xml" <<EOF
<?xml version="1.0"?>
<!-- Generated by deploy/local/secure-services.sh; edits are overwritten on the next start. -->
<yandex>
    <logger>
        <level>information</level>
        <log>$CDIR/logs/clickhouse-server.log</log>
        <errorlog>$CDIR/logs/clickhouse-server.err.log</errorlog>
        <size>50M</size>
        <count>2</count>
    </logger>
    <https_port>$CH_HTTPS_PORT</https_port>
    <http_port>$CH_HTTP_PORT</http_port>
    <tcp_port>$CH_TCP_PORT</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <openSSL>
        <server>
            <certificateFile>$TLS/server.pem</certificateFile>
            <privateKeyFile>$TLS/server.key</privateKeyFile>
            <verificationMode>none</verificationMode>
            <loadDefaultCAFile>false</loadDefaultCAFile>
            <cacheSessions>true</cacheSessions>
            <disableProtocols>sslv2,sslv3</disableProtocols>
            <preferServerCiphers>true</preferServerCiphers>
        </server>
    </openSSL>
    <max_connections>256</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>50</max_concurrent_queries>
    <uncompressed_cache_size>67108864</uncompressed_cache_size>
    <mark_cache_size>67108864</mark_cache_size>
    <path>$CDIR/data/</path>
    <tmp_path>$CDIR/tmp/</tmp_path>
    <user_files_path>$CDIR/user_files/</user_files_path>
    <format_schema_path>$CDIR/format_schemas/</format_schema_path>
    <users_config>$CDIR/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
</yandex>
EOF
  # 18.16 users.xml: plain <password> per user. `default` gets the same password: no user without one.
  cat >"$CDIR/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <profiles>
        <default><max_memory_usage>2000000000</max_memory_usage></default>
    </profiles>
    <users>
        <default>
            <password>$CLICKHOUSE_SECRET</password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <$USER_NAME>
            <password>$CLICKHOUSE_SECRET</password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </$USER_NAME>
    </users>
    <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
EOF
}

start_clickhouse() {
  need_cmd curl curl
  local bin; bin="$(command -v clickhouse-server 2>/dev/null || echo /usr/sbin/clickhouse-server)"
  [ -x "$bin" ] || apt_install clickhouse-server clickhouse-client
  if ch_ok; then log "ClickHouse HTTPS already answers on 127.0.0.1:$CH_HTTPS_PORT; reusing it"; return 0; fi
  for port in "$CH_HTTPS_PORT" "$CH_HTTP_PORT" "$CH_TCP_PORT"; do
    port_open "$port" && die "port 127.0.0.1:$port is taken; set SECURE_BASE_PORT"
  done
  write_clickhouse_config
  mark_start "$CDIR"
  rotate_log "$CDIR/logs/stdout.log"
  log "starting ClickHouse with HTTPS on 127.0.0.1:$CH_HTTPS_PORT ..."
  local pid
  pid="$(cd "$CDIR" && spawn_detached "$CDIR/logs/stdout.log" "$bin" --config-file="$CDIR/config.xml")"
  echo "$pid" >"$CDIR/clickhouse.pid"
  wait_until 60 "ClickHouse HTTPS ping on 127.0.0.1:$CH_HTTPS_PORT" "$CDIR/clickhouse.pid" clickhouse-server \
    "$CDIR/logs/stdout.log:$CDIR/logs/clickhouse-server.err.log" -- ch_ok
}

stop_clickhouse() {
  stop_pid "$CDIR/clickhouse.pid" clickhouse-server clickhouse-https 60 || log "ClickHouse HTTPS not running"
}

# ---------------------------------------------------------------- commands

print_env() {
  make_secrets
  cat <<EOF
REDIS_URL=rediss://127.0.0.1:$REDIS_TLS_PORT
REDIS_USERNAME=$USER_NAME
REDIS_PASSWORD=$REDIS_SECRET
REDIS_TLS_CA_FILE=$TLS/ca.pem
KAFKA_BROKERS=127.0.0.1:$KAFKA_SASL_PORT
KAFKA_SECURITY_PROTOCOL=SASL_SSL
KAFKA_SASL_MECHANISM=SCRAM-SHA-512
KAFKA_SASL_USERNAME=$USER_NAME
KAFKA_SASL_PASSWORD=$KAFKA_SECRET
KAFKA_TLS_CA_FILE=$TLS/ca.pem
CLICKHOUSE_URL=https://127.0.0.1:$CH_HTTPS_PORT
CLICKHOUSE_USER=$USER_NAME
CLICKHOUSE_PASSWORD=$CLICKHOUSE_SECRET
CLICKHOUSE_TLS_CA_FILE=$TLS/ca.pem
SECURE_KAFKA_SSL_BROKERS=127.0.0.1:$KAFKA_SSL_PORT
SECURE_TLS_DIR=$TLS
EOF
}

start_all() {
  local t0; t0=$(now_s)
  make_tls
  make_secrets
  start_redis
  start_clickhouse
  start_kafka
  log "ready: Redis rediss://127.0.0.1:$REDIS_TLS_PORT, Kafka SASL_SSL 127.0.0.1:$KAFKA_SASL_PORT, ClickHouse https://127.0.0.1:$CH_HTTPS_PORT in $(( $(now_s) - t0 ))s"
}

stop_all() {
  stop_kafka
  stop_clickhouse
  stop_redis
}

status_all() {
  local rc=0
  [ -s "$SECRETS" ] && make_secrets
  if [ -s "$SECRETS" ] && redis_ok; then echo "secure redis: running rediss://127.0.0.1:$REDIS_TLS_PORT"; else echo "secure redis: stopped"; rc=3; fi
  if pid_alive "$KDIR/kafka.pid" "$KPATTERN" >/dev/null && port_open "$KAFKA_SASL_PORT"; then echo "secure kafka: running 127.0.0.1:$KAFKA_SASL_PORT"; else echo "secure kafka: stopped"; rc=3; fi
  if ch_ok; then echo "secure clickhouse: running https://127.0.0.1:$CH_HTTPS_PORT"; else echo "secure clickhouse: stopped"; rc=3; fi
  return "$rc"
}

case "${1:-}" in
  start) with_lock secure start_all ;;
  stop) with_lock secure stop_all ;;
  status) status_all ;;
  env) print_env ;;
  # The certificates alone (for deploy/local/redis-cluster.sh's REDIS_CLUSTER_TLS_DIR): prints their directory.
  tls) with_lock secure make_tls && echo "$TLS" ;;
  *) echo "usage: $0 {start|stop|status|env|tls}" >&2; exit 2 ;;
esac
