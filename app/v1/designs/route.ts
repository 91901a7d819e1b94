import { designsRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = designsRoute.handlers;
