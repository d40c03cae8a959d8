import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  TABLE_KEYS,
  TABLES,
  type KeyAttribute,
  type TableDefinition,
  type TableKey,
} from '../../shared/tables';

export interface DataTablesProps {
  /**
   * Keep the tables (and their data) when the stack is deleted, and refuse deletion while they exist.
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
 * point-in-time recovery, encrypted with the AWS-managed KMS key, TTL and indexes as defined.
 * Table names are generated; functions find them in the environment variable the definition names.
 */
export class DataTables extends Construct {
  private readonly tables: Record<TableKey, Table>;

  constructor(scope: Construct, id: string, props: DataTablesProps = {}) {
    super(scope, id);
    const retain = props.retain ?? true;

    const tables: Partial<Record<TableKey, Table>> = {};
    for (const key of TABLE_KEYS) {
      const definition: TableDefinition = TABLES[key];
      const table = new Table(this, definition.id, {
        partitionKey: attribute(definition.partitionKey),
        sortKey: definition.sortKey && attribute(definition.sortKey),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        // Personal health data: the AWS-managed key makes every use of the key visible in CloudTrail.
        encryption: TableEncryption.AWS_MANAGED,
        timeToLiveAttribute: definition.timeToLiveAttribute,
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
    }
    this.tables = tables as Record<TableKey, Table>;
  }

  /** The table created from `TABLES[key]`. */
  table(key: TableKey): Table {
    return this.tables[key];
  }
}
