"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useFormAction } from "@/lib/dashboard/use-form-action";
import styles from "../auth.module.css";
import { signUpAction } from "./actions";
import { formText } from "@/app/form-text";

const FIELDS = [
  { name: "name", label: "Your name", type: "text", autoComplete: "name" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "password", label: "Password (at least 10 characters)", type: "password", autoComplete: "new-password" },
  { name: "organizationName", label: "Organization name", type: "text", autoComplete: "organization" },
] as const;

export function SignUpForm() {
  const router = useRouter();
  const { state, onSubmit, pending, fieldErrors: errors } = useFormAction(signUpAction);
  const credentials = useRef<{ email: string; password: string } | null>(null);

  useEffect(() => {
    if (state.status !== "ok" || !credentials.current) return;
    const { email, password } = credentials.current;
    void signIn("credentials", { email, password, redirect: false }).then(() => {
      router.replace("/dashboard");
      router.refresh();
    });
  }, [state, router]);

  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        const form = new FormData(e.currentTarget);
        credentials.current = { email: formText(form, "email"), password: formText(form, "password") };
        onSubmit(e);
      }}
      noValidate
    >
      {state.status === "error" && (
        <p className={styles.error} role="alert" data-testid="form-error">
          {state.message}
        </p>
      )}
      {FIELDS.map((f) => (
        <div className={styles.field} key={f.name}>
          <label htmlFor={f.name}>{f.label}</label>
          <input
            id={f.name}
            name={f.name}
            type={f.type}
            autoComplete={f.autoComplete}
            aria-invalid={Boolean(errors[f.name])}
            aria-describedby={errors[f.name] ? `${f.name}-error` : undefined}
            required
          />
          {errors[f.name] && (
            <span className={styles.fieldError} id={`${f.name}-error`}>
              {errors[f.name]}
            </span>
          )}
        </div>
      ))}
      <button className={styles.button} type="submit" disabled={pending || state.status === "ok"}>
        {pending || state.status === "ok" ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
}
