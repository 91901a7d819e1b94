"use client";
// A form bound to a server action that keeps what the person typed when the action reports errors
// (React resets forms submitted through the `action` prop, which would wipe a form full of input
// because of one wrong field). Forms that create things can ask to be cleared after a success.
import { startTransition, useActionState, useEffect, useRef } from "react";
// Only the type: form-state.ts imports the logger and the configuration, which must stay on the server.
import type { FormState } from "./form-state";

const IDLE: FormState<never> = { status: "idle" };

export function useFormAction<T>(
  action: (previous: FormState<T>, form: FormData) => Promise<FormState<T>>,
  options: { resetOnSuccess?: boolean } = {},
) {
  const [state, dispatch, pending] = useActionState<FormState<T>, FormData>(action, IDLE);
  const submitted = useRef<HTMLFormElement | null>(null);
  const { resetOnSuccess = false } = options;
  useEffect(() => {
    if (resetOnSuccess && state.status === "ok") submitted.current?.reset();
  }, [state, resetOnSuccess]);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted.current = event.currentTarget;
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  };
  const fieldErrors = state.status === "error" ? state.fieldErrors : {};
  return { state, onSubmit, pending, fieldErrors };
}
