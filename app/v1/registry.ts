// Every /v1 route except the OpenAPI document's own (which imports this list), for the OpenAPI
// document. app/v1/registry.test.ts fails when a route.ts is missing here.
import type { RouteDefinition } from "@/lib/api/endpoint";
import { groupsRoute } from "./groups/endpoints";
import { groupRoute } from "./groups/[id]/endpoints";
import { designsRoute } from "./designs/endpoints";
import { designRoute } from "./designs/[id]/endpoints";
import { credentialsRoute } from "./credentials/endpoints";
import { createIssueSendRoute } from "./credentials/create-issue-send/endpoints";
import { searchRoute } from "./credentials/search/endpoints";
import { credentialRoute } from "./credentials/[id]/endpoints";
import { issueRoute } from "./credentials/[id]/issue/endpoints";
import { sendRoute } from "./credentials/[id]/send/endpoints";
import { revokeRoute } from "./credentials/[id]/revoke/endpoints";
import { verifiableCredentialRoute } from "./credentials/[id]/verifiable-credential/endpoints";
import { credentialOfferRoute } from "./credentials/[id]/credential-offer/endpoints";
import { credentialDesignsRoute } from "./credentials/[id]/designs/endpoints";
import { interactionsRoute } from "./credential-interactions/endpoints";
import { attributesRoute } from "./attributes/endpoints";
import { webhooksRoute } from "./webhooks/endpoints";
import { webhookRoute } from "./webhooks/[id]/endpoints";
import { rotateSecretRoute } from "./webhooks/[id]/rotate-secret/endpoints";
import { deliveriesRoute } from "./webhooks/[id]/deliveries/endpoints";
import { retryDeliveryRoute } from "./webhooks/[id]/deliveries/[eventId]/retry/endpoints";
import { correctionRequestsRoute } from "./correction-requests/endpoints";
import { approveCorrectionRoute } from "./correction-requests/[id]/approve/endpoints";
import { rejectCorrectionRoute } from "./correction-requests/[id]/reject/endpoints";

export const API_ROUTES: RouteDefinition[] = [
  credentialsRoute,
  createIssueSendRoute,
  searchRoute,
  credentialRoute,
  issueRoute,
  sendRoute,
  revokeRoute,
  verifiableCredentialRoute,
  credentialOfferRoute,
  credentialDesignsRoute,
  interactionsRoute,
  groupsRoute,
  groupRoute,
  designsRoute,
  designRoute,
  attributesRoute,
  webhooksRoute,
  webhookRoute,
  rotateSecretRoute,
  deliveriesRoute,
  retryDeliveryRoute,
  correctionRequestsRoute,
  approveCorrectionRoute,
  rejectCorrectionRoute,
];
