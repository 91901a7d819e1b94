"use client";
// A form bound to a server action that keeps what the person typed when the action reports errors
// (React resets forms submitted through the `action` prop, which would wipe a form full of input
// because of one wrong field).
import { startTransition, useActionState } from "react";
import { IDLE, type FormState } from "./form-state";

export function useFormAction<T>(action: (previous: FormState<T>, form: FormData) => Promise<FormState<T>>) {
  const [state, dispatch, pending] = useActionState<FormState<T>, FormData>(action, IDLE);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  };
  const fieldErrors = state.status === "error" ? state.fieldErrors : {};
  return { state, onSubmit, pending, fieldErrors };
}
