import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, Effect, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import {
  APPEND_ONLY_DENIED,
  TABLE_KEYS,
  TABLES,
  type KeyAttribute,
  type TableDefinition,
  type TableKey,
} from '../../shared/tables';

export interface DataTablesProps {
  /**
   * Keep the tables (and their data) and their customer-managed keys when the stack is deleted, and
   * refuse table deletion while they exist.
   * @default true
   */
  readonly retain?: boolean;
}

const ATTRIBUTE_TYPES: Record<KeyAttribute['type'], AttributeType> = {
  S: AttributeType.STRING,
  N: AttributeType.NUMBER,
  B: AttributeType.BINARY,
};

const attribute = (key: KeyAttribute): Attribute => ({ name: key.name, type: ATTRIBUTE_TYPES[key.type] });

/**
 * One DynamoDB table per entry of the shared table definitions (`shared/tables.ts`): on demand,
 * point-in-time recovery, TTL and indexes as defined, encrypted with the AWS-managed KMS key, or with a
 * customer-managed key of its own when the definition asks for one (`customerManagedKey`), and with a
 * resource policy that keeps it append-only when the definition says so (`appendOnly`).
 * Table names are generated; functions find them in the environment variable the definition names.
 */
export class DataTables extends Construct {
  private readonly tables: Record<TableKey, Table>;
  private readonly keys: Partial<Record<TableKey, Key>> = {};

  constructor(scope: Construct, id: string, props: DataTablesProps = {}) {
    super(scope, id);
    const retain = props.retain ?? true;

    const tables: Partial<Record<TableKey, Table>> = {};
    for (const key of TABLE_KEYS) {
      const definition: TableDefinition = TABLES[key];
      const encryptionKey = definition.customerManagedKey
        ? new Key(this, `${definition.id}-key`, {
            description: `Encrypts the ${definition.id} table: using its data needs this key, and every use is in CloudTrail`,
            enableKeyRotation: true,
            // Deleting the key would make the table, its backups and point-in-time recovery unreadable.
            removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
          })
        : undefined;
      const table = new Table(this, definition.id, {
        partitionKey: attribute(definition.partitionKey),
        sortKey: definition.sortKey && attribute(definition.sortKey),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        // Personal data: the AWS-managed key makes every use of the key visible in CloudTrail. Health
        // data (health records, coaching) gets a key of its own per table, so reading a table also needs
        // a grant on its key.
        ...(encryptionKey
          ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey }
          : { encryption: TableEncryption.AWS_MANAGED }),
        timeToLiveAttribute: definition.timeToLiveAttribute,
        // An append-only table (the audit log): no role, user or account root may change or remove an
        // item without first changing this policy, which CloudTrail records as a management event.
        ...(definition.appendOnly && {
          resourcePolicy: new PolicyDocument({
            statements: [
              new PolicyStatement({
                sid: 'AppendOnly',
                effect: Effect.DENY,
                principals: [new AnyPrincipal()],
                actions: [...APPEND_ONLY_DENIED],
                // The table and its indexes: a table's own policy cannot name its ARN before it exists.
                resources: ['*'],
              }),
            ],
          }),
        }),
        deletionProtection: retain,
        removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      for (const index of definition.globalSecondaryIndexes ?? []) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          sortKey: index.sortKey && attribute(index.sortKey),
        });
      }
      tables[key] = table;
      if (encryptionKey) this.keys[key] = encryptionKey;
    }
    this.tables = tables as Record<TableKey, Table>;
  }

  /** The table created from `TABLES[key]`. */
  table(key: TableKey): Table {
    return this.tables[key];
  }

  /** The customer-managed key of `TABLES[key]`, or undefined for a table on the AWS-managed key. */
  encryptionKey(key: TableKey): Key | undefined {
    return this.keys[key];
  }
}
