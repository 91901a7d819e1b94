import { rejectCorrectionRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = rejectCorrectionRoute.handlers;
