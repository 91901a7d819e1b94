import { credentialDesignsRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = credentialDesignsRoute.handlers;
