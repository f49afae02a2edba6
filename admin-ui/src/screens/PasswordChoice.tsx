import { useEffect, useId } from 'react';
import { TextField } from '../components/Fields.tsx';
import { generatePassword, passwordProblem } from '../lib/passwordRules.ts';

/** A password an administrator gives a user: generated (shown once after saving) or typed. */
export type PasswordChoiceState = { readonly mode: 'generate' | 'set'; readonly password: string };

type PasswordChoiceProps = {
  readonly state: PasswordChoiceState;
  readonly onChange: (state: PasswordChoiceState) => void;
  /** Whose password it is, in the legend: "the new user", "alice". */
  readonly who: string;
};

/** Generate (the default: nobody has to invent one) or set a password; a typed one is checked against the rule. */
export function PasswordChoice({ state, onChange, who }: PasswordChoiceProps) {
  const name = useId();
  useEffect(() => {
    if (state.mode === 'generate' && state.password === '') onChange({ mode: 'generate', password: generatePassword() });
  }, [state, onChange]);
  const problem = state.mode === 'set' && state.password !== '' ? passwordProblem(state.password) : null;
  return (
    <fieldset className="password-choice">
      <legend>Password of {who}</legend>
      <div className="field checkbox">
        <input
          id={`${name}-generate`}
          type="radio"
          name={name}
          checked={state.mode === 'generate'}
          onChange={() => onChange({ mode: 'generate', password: generatePassword() })}
        />
        <label htmlFor={`${name}-generate`}>Generate a password (shown once, after saving)</label>
      </div>
      <div className="field checkbox">
        <input id={`${name}-set`} type="radio" name={name} checked={state.mode === 'set'} onChange={() => onChange({ mode: 'set', password: '' })} />
        <label htmlFor={`${name}-set`}>Set a password</label>
      </div>
      {state.mode === 'set' && (
        <TextField
          label="Password"
          labelContext={`of ${who}`}
          type="password"
          autoComplete="new-password"
          value={state.password}
          onChange={(password) => onChange({ mode: 'set', password })}
          required
          minLength={8}
          maxLength={256}
          hint="8 to 256 characters; any characters."
          error={problem}
        />
      )}
    </fieldset>
  );
}
