import { designsRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = designsRoute.handlers;
