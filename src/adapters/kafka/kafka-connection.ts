/** What every Kafka client of one bus shares: who it is and where the brokers are. */
export interface KafkaConnection {
  readonly clientId: string;
  /** `host:port` of each seed broker. */
  readonly bootstrapBrokers: string[];
  /** How long one connection attempt may take, in ms. */
  readonly connectTimeout: number;
}
