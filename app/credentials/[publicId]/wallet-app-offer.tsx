"use client";
// "Add to a wallet app": the recipient's OpenID4VCI offer of this credential, as a QR code to scan with
// a wallet app and a link to open on this device, with when it stops working. An offer binds the
// credential to whoever claims it, so it is made only for a signed-in recipient
// (POST /api/wallet/me/credentials/<publicId>/credential-offer); a browser that only carries the
// recipient mark is asked to sign in first, and a guest (neither) sees nothing. `signedIn`: the server
// knows the reader is this credential's signed-in recipient (the wallet page, a /wallet card). Made on request, never on page load: each offer is a
// fresh single-use code.
import { useState } from "react";
import { useTranslations } from "next-intl";
import styles from "./wallet-app-offer.module.css";
import { useViewer } from "./viewer";

type Offer = { link: string; expiresAt: string; qr: string };
type State = { kind: "idle" } | { kind: "preparing" } | { kind: "ready"; offer: Offer } | { kind: "signIn" } | { kind: "failed" };

async function requestOffer(publicId: string): Promise<State> {
  const res = await fetch(`/api/wallet/me/credentials/${encodeURIComponent(publicId)}/credential-offer`, { method: "POST" });
  if (res.status === 401) return { kind: "signIn" };
  if (res.status !== 201) return { kind: "failed" };
  const body = (await res.json()) as { link: string; expiresAt: string };
  // Loaded on first use only: the page's first load stays as small as it was.
  const QRCode = (await import("qrcode")).default;
  const qr = await QRCode.toDataURL(body.link, { errorCorrectionLevel: "M", margin: 2, width: 240 });
  return { kind: "ready", offer: { ...body, qr } };
}

/** `HH:MM` of an instant, in UTC like every time the wallet page shows. */
function clockTime(iso: string): string {
  return new Date(iso).toISOString().slice(11, 16);
}

export function WalletAppOffer(props: { publicId: string; signedIn?: boolean; inCard?: boolean }) {
  const { publicId, signedIn = false, inCard = false } = props;
  const t = useTranslations("walletApp");
  const viewer = useViewer(publicId);
  const [state, setState] = useState<State>({ kind: "idle" });
  if (!signedIn && viewer !== "recipient") return null;

  const headingId = `wallet-app-${publicId}`;
  const show = () => {
    setState({ kind: "preparing" });
    requestOffer(publicId).then(setState, () => setState({ kind: "failed" }));
  };

  return (
    <section className={inCard ? styles.inCard : styles.offer} aria-labelledby={headingId} data-testid="wallet-app-offer">
      {/* In a /wallet card it sits under the card's own title (an h2), so it is one level down. */}
      {inCard ? <h3 id={headingId}>{t("heading")}</h3> : <h2 id={headingId}>{t("heading")}</h2>}
      <p>{t("explain")}</p>
      {state.kind === "ready" ? (
        <div className={styles.ready}>
          <img className={styles.qr} src={state.offer.qr} width={240} height={240} alt={t("qrAlt")} data-testid="wallet-app-qr" />
          <a className={styles.button} href={state.offer.link} data-testid="wallet-app-link">
            {t("openLink")}
          </a>
          <p className={styles.expiry} data-testid="wallet-app-expiry">
            {t("expires", { time: clockTime(state.offer.expiresAt) })}
          </p>
        </div>
      ) : state.kind === "signIn" ? (
        <p role="status" data-testid="wallet-app-sign-in">
          {t("signInFirst")} <a href="/wallet">{t("signIn")}</a>
        </p>
      ) : (
        <>
          <button
            className={styles.button}
            type="button"
            onClick={show}
            disabled={state.kind === "preparing"}
            data-testid="wallet-app-show"
          >
            {state.kind === "preparing" ? t("preparing") : t("show")}
          </button>
          {state.kind === "failed" ? <p role="alert">{t("failed")}</p> : null}
        </>
      )}
    </section>
  );
}
