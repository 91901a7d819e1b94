import { credentialDesignsRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = credentialDesignsRoute.handlers;
