import { credentialOfferRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = credentialOfferRoute.handlers;
