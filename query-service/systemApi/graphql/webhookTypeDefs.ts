/** Webhook types and operations (changes.md §6); the delivery connection is in systemObjectTypeDefs. */
export const webhookTypeDefs = /* GraphQL */ `
"A webhook (changes.md §6.1); its secret is shown only by create and rotate-secret."
type Webhook {
  id: ID!
  organizationId: String!
  "null: every project of the organization."
  projectName: String
  "null: all branches; entries are exact names or \`$default\`."
  branchNames: [String!]
  types: [String!]!
  url: String!
  description: String
  active: Boolean!
  "\`whsec_\` and the first 4 characters of the secret."
  secretPrefix: String!
  createdAt: DateTime!
  createdBy: ID!
  consecutiveFailures: Int!
  disabledAt: DateTime
  disabledReason: String
}

type WebhookWithSecret {
  secret: String!
  webhook: Webhook!
}

enum WebhookDeliveryStatus { pending succeeded failed }

type WebhookAttempt {
  at: DateTime!
  responseStatus: Int
  durationMs: Int!
  error: String
}

type WebhookDelivery {
  "Also the \`webhook-id\` header: stable across retries."
  id: ID!
  webhookId: ID!
  type: String!
  "Log position of the event; null for a ping."
  position: String
  status: WebhookDeliveryStatus!
  "The last 20 attempts, oldest first."
  attempts: [WebhookAttempt!]!
  nextAttemptAt: DateTime
  createdAt: DateTime!
}

input CreateWebhookInput {
  organizationId: String!
  url: String!
  types: [String!]!
  projectName: String
  branchNames: [String!]
  description: String
}

"Omitted fields keep their value; \`active: true\` re-enables a disabled webhook and resets its failure counter."
input UpdateWebhookInput {
  url: String
  types: [String!]
  projectName: String
  branchNames: [String!]
  description: String
  active: Boolean
}
`;

export const webhookQueryFields = /* GraphQL */ `
  "Webhooks of an organization, oldest first (owners, admins, systemAdmin)."
  webhooks(organizationId: String!): [Webhook!]!
  webhook(id: ID!): Webhook!
  "A webhook's deliveries, newest first."
  webhookDeliveries(webhookId: ID!, first: Int, after: String): WebhookDeliveryConnection!
`;

export const webhookMutationFields = /* GraphQL */ `
  createWebhook(data: CreateWebhookInput!): WebhookWithSecret!
  updateWebhook(id: ID!, data: UpdateWebhookInput): Webhook!
  "A new secret; the previous one keeps signing (second signature) for 24 hours."
  rotateWebhookSecret(id: ID!): WebhookWithSecret!
  deleteWebhook(id: ID!): Boolean!
  "Sends one webhook.ping event through the delivery path; answers its delivery."
  pingWebhook(id: ID!): WebhookDelivery!
  "Queues a new attempt of a delivery at once."
  redeliverWebhook(deliveryId: ID!): WebhookDelivery!
`;
