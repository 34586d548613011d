import { isLoopbackUrl } from "../run/config.ts";
import type { Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import { WebhookReceiver } from "../transport/receiver.ts";

/** Starts the runner's webhook receiver when the deployment can reach it. */
export async function provideReceiver(suite: Suite): Promise<WebhookReceiver> {
  const { config } = suite;
  if (!config.webhookReceiverUrl) {
    if (suite.supply === "given")
      missing(
        "receiver",
        suite.supply,
        "a delivery reaches the runner only through a webhook registered by hand to that URL; docs/guides/certify-in-ci.md#webhooks-from-ci",
      );
    if (!isLoopbackUrl(config.baseUrl))
      missing("receiver", suite.supply, `the deployment at ${new URL(config.baseUrl).host} cannot reach 127.0.0.1`);
  }
  const receiver = new WebhookReceiver(suite.marker.token);
  let port = config.webhookListenPort;
  if (port === undefined && config.webhookReceiverUrl) {
    const publicPort = new URL(config.webhookReceiverUrl).port;
    port = publicPort ? Number(publicPort) : undefined;
  }
  await receiver.start({
    host: config.webhookListenHost ?? "127.0.0.1",
    port: port ?? 0,
    publicUrl: config.webhookReceiverUrl,
  });
  suite.cleanup.runner(() => receiver.close());
  return receiver;
}
