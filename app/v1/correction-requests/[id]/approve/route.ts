import { approveCorrectionRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = approveCorrectionRoute.handlers;
