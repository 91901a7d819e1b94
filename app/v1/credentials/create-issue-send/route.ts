import { createIssueSendRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = createIssueSendRoute.handlers;
