// Where each share button goes. Pure functions of the credential's public URL and texts, so the
// page and its tests build the same links.
import { safeDownloadName, type DownloadFormat } from "@/lib/previews/download-name";

export type ShareTarget = {
  network: "linkedin" | "facebook" | "twitter" | "messenger" | "whatsapp" | "pinterest" | "telegram" | "weibo";
  label: string;
  eventType: `credential_shared_to_${ShareTarget["network"]}`;
  href: string;
};

export function shareTargets(input: { url: string; text: string; imageUrl: string | null }): ShareTarget[] {
  const u = encodeURIComponent(input.url);
  const t = encodeURIComponent(input.text);
  const img = input.imageUrl ? encodeURIComponent(input.imageUrl) : "";
  const targets: Omit<ShareTarget, "eventType">[] = [
    { network: "linkedin", label: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { network: "facebook", label: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { network: "twitter", label: "X (Twitter)", href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    { network: "messenger", label: "Messenger", href: `fb-messenger://share/?link=${u}` },
    { network: "whatsapp", label: "WhatsApp", href: `https://wa.me/?text=${encodeURIComponent(`${input.text} ${input.url}`)}` },
    {
      network: "pinterest",
      label: "Pinterest",
      href: `https://www.pinterest.com/pin/create/button/?url=${u}&media=${img}&description=${t}`,
    },
    { network: "telegram", label: "Telegram", href: `https://t.me/share/url?url=${u}&text=${t}` },
    { network: "weibo", label: "Weibo", href: `https://service.weibo.com/share/share.php?url=${u}&title=${t}${img ? `&pic=${img}` : ""}` },
  ];
  return targets.map((target) => ({ ...target, eventType: `credential_shared_to_${target.network}` }));
}

/**
 * LinkedIn's "Add to profile" form, filled in (certification name, organization, dates, URL, id).
 * With the issuer's company page id, LinkedIn attaches that page (its name and logo) as the issuing
 * organization; a name alone stays plain text on the profile. LinkedIn takes one or the other.
 */
export function linkedInAddToProfileUrl(input: {
  name: string;
  organizationName: string;
  organizationId?: string | null;
  issueDate: string;
  expiryDate: string | null;
  url: string;
  credentialId: string;
}): string {
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: input.name,
    ...(input.organizationId ? { organizationId: input.organizationId } : { organizationName: input.organizationName }),
    issueYear: input.issueDate.slice(0, 4),
    issueMonth: String(Number(input.issueDate.slice(5, 7))),
    certUrl: input.url,
    certId: input.credentialId,
  });
  if (input.expiryDate) {
    params.set("expirationYear", input.expiryDate.slice(0, 4));
    params.set("expirationMonth", String(Number(input.expiryDate.slice(5, 7))));
  }
  return `https://www.linkedin.com/profile/add?${params.toString()}`;
}

/** A file name a person would keep: "Data Analysis Fundamentals - Ada Lovelace.pdf". */
export function downloadFileName(
  groupName: string,
  recipientName: string,
  designName: string,
  multipleDesigns: boolean,
  format: DownloadFormat,
): string {
  return safeDownloadName([groupName, recipientName, ...(multipleDesigns ? [designName] : [])].join(" - "), format);
}

/** Text for HTML (element content and double-quoted attribute values): every character that could start markup, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * The HTML a recipient pastes into a website, a blog or a portfolio: the credential's image linking
 * to its wallet page. Every value (names in the alt text, URLs) is escaped, so a hostile name stays
 * text in whatever page it lands in. The image is the 800 px preview, sized by the page it sits in.
 */
export function embedSnippet(input: { url: string; imageUrl: string; imageWidth: number; imageHeight: number; alt: string }): string {
  const img = `<img src="${escapeHtml(input.imageUrl)}" width="${input.imageWidth}" height="${input.imageHeight}" alt="${escapeHtml(input.alt)}" style="max-width:100%;height:auto">`;
  return `<a href="${escapeHtml(input.url)}" target="_blank" rel="noopener">${img}</a>`;
}
