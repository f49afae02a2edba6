import { useLayoutEffect, useRef } from 'react';
import type { PermissionRule } from '../api/types.ts';
import { Checkbox } from '../components/Fields.tsx';

export const ACTIONS = ['read', 'create', 'update', 'delete', 'revert', 'add', 'manage'] as const;
export const SUBJECTS = ['Organization', 'Project', 'Branch', 'Revision', 'Table', 'Row', 'Endpoint', 'User', 'all'] as const;

export type RuleDraft = { readonly actions: readonly string[]; readonly subjects: readonly string[]; readonly inverted: boolean };

export const DEFAULT_RULES: readonly RuleDraft[] = [{ actions: ['read'], subjects: ['Table', 'Row'], inverted: false }];

export function rulesOf(drafts: readonly RuleDraft[]): PermissionRule[] {
  return drafts.map((d) => ({ action: [...d.actions], subject: [...d.subjects], ...(d.inverted ? { inverted: true } : {}) }));
}

function toggle(list: readonly string[], value: string, on: boolean): string[] {
  return on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}

/**
 * Permission rules of a service key (auth.md §8.7): each rule grants (or, inverted, denies) actions on subjects;
 * the last matching rule wins. A key can never get more than its creator has. "Add rule" moves the focus into the
 * new rule.
 */
export function RuleEditor({ rules, onChange }: { readonly rules: readonly RuleDraft[]; readonly onChange: (rules: RuleDraft[]) => void }) {
  const update = (index: number, patch: Partial<RuleDraft>): void => onChange(rules.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  const list = useRef<HTMLDivElement>(null);
  const focusAdded = useRef(false);
  useLayoutEffect(() => {
    if (!focusAdded.current) return;
    focusAdded.current = false;
    list.current?.querySelector<HTMLElement>('fieldset.rule:last-of-type input')?.focus();
  }, [rules.length]);
  return (
    <div className="rules" ref={list}>
      {rules.map((rule, index) => (
        <fieldset key={index} className="rule">
          <legend>Rule {index + 1}</legend>
          <fieldset className="choices">
            <legend>Actions</legend>
            {ACTIONS.map((action) => (
              <Checkbox
                key={action}
                label={action}
                labelContext={`in rule ${index + 1}`}
                checked={rule.actions.includes(action)}
                onChange={(on) => update(index, { actions: toggle(rule.actions, action, on) })}
              />
            ))}
          </fieldset>
          <fieldset className="choices">
            <legend>Subjects</legend>
            {SUBJECTS.map((subject) => (
              <Checkbox
                key={subject}
                label={subject}
                labelContext={`in rule ${index + 1}`}
                checked={rule.subjects.includes(subject)}
                onChange={(on) => update(index, { subjects: toggle(rule.subjects, subject, on) })}
              />
            ))}
          </fieldset>
          <Checkbox
            label="Deny instead of allow (inverted)"
            labelContext={`in rule ${index + 1}`}
            checked={rule.inverted}
            onChange={(inverted) => update(index, { inverted })}
          />
          <button type="button" disabled={rules.length === 1} onClick={() => onChange(rules.filter((_, i) => i !== index))}>
            Remove rule {index + 1}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        disabled={rules.length >= 50}
        onClick={() => {
          focusAdded.current = true;
          onChange([...rules, { actions: ['read'], subjects: ['Row'], inverted: false }]);
        }}
      >
        Add rule
      </button>
    </div>
  );
}
