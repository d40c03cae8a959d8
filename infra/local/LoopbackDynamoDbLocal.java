import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local as its own `main` starts it (the same command-line options), but listening on the
 * loopback address only. The jar has no option for the address, and its Jetty server listens on every
 * interface, where DynamoDB Local answers anyone without checking credentials: from the network, the
 * activation codes, the health records and the audit events could be read and changed. Built and
 * started by `dynamodb-local.ts` (docs/decisions/062-dynamodb-local-on-loopback.md).
 */
public final class LoopbackDynamoDbLocal {
  private LoopbackDynamoDbLocal() {}

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector))
        throw new IllegalStateException("DynamoDB Local's connector cannot be bound: " + connector);
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
  }
}
