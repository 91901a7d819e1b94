// Who a message says it is from. Credential emails go out from the service's own address (MAIL_FROM,
// which its SPF and DKIM cover) under the organization's name: "Acme Academy via Credentials". The
// display name is handed to nodemailer as a structured address, which quotes or RFC 2047-encodes it:
// it is never pasted into a header line, so quotes, angle brackets or line breaks in a name cannot
// add a recipient or a header.
import addressparser from "nodemailer/lib/addressparser";
import { config } from "../config";

export type SenderAddress = { name: string; address: string };

/** MAIL_FROM split into its display name (the service's name) and address. */
export function serviceSender(mailFrom = config().mailFrom, publicUrl = config().publicUrl): SenderAddress {
  const parsed = addressparser(mailFrom, { flatten: true })[0];
  const address = parsed?.address || "no-reply@localhost";
  // Without a display name in MAIL_FROM the service is called by its host name.
  const name = parsed?.name?.trim() || new URL(publicUrl).hostname || "Credentials";
  return { name, address };
}

/**
 * One line of plain text: control characters and runs of white space become single spaces, and "=?"
 * is spaced apart so that no part of a name reads as an RFC 2047 encoded word, which some mail
 * clients would decode into something else (an address) than the name shown in the settings.
 */
function displayText(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
    .replace(/=\?/g, "= ?")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The From of an email queued with this display name: "<name> via <service>" at MAIL_FROM's address,
 * or MAIL_FROM itself for mail that no organization sends (a password reset).
 */
export function fromAddress(fromName: string | null, sender: SenderAddress = serviceSender()): SenderAddress {
  const name = fromName === null ? "" : displayText(fromName);
  return name ? { name: `${name} via ${sender.name}`, address: sender.address } : sender;
}
