/**
 * A few questions in a row (add an endpoint: name, URL, format, credential). Answers so far stay
 * visible where there is room, hidden ones as "(hidden)"; Esc cancels the whole thing. A field's `check` may refuse an
 * answer with a message, and the question is asked again.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { useTheme } from '../theme.js';
import { TextField, WAY_OUT } from './TextField.js';
import { answerLine } from '../field-line.js';
import { fullestFitting } from '../fit-wording.js';
import { fittingHints, type Hint } from '../key-hints.js';
import { wizardRows } from '../wizard-rows.js';
import { textWidth } from '../../util/text-width.js';

/** The way out first: it is what a reader of a narrow terminal must find. */
const WIZARD_HINTS: readonly Hint[] = [WAY_OUT, ['Enter confirms each answer', 'Enter confirms', 'Enter ok']];

export interface WizardField {
  key: string;
  /** Fullest wording first (TextField). */
  label: string | readonly string[];
  hidden?: boolean;
  initial?: string;
  hint?: string;
  /** An error message for a bad answer, or undefined when it is fine; `answers`: the earlier fields'. */
  check?(value: string, answers: Readonly<Record<string, string>>): string | undefined;
}

export interface WizardProps {
  /** Fullest wording first; the one shown leaves room for the way out (Esc). */
  title: string | readonly string[];
  fields: readonly WizardField[];
  width: number;
  /** Rows it has: what matters most keeps its place in fewer (wizard-rows.ts). */
  height: number;
  /** Answers to start from, by field key (what was typed before a refusal), over each field's `initial`. */
  answers?: Readonly<Record<string, string>>;
  /** Why those answers were refused, shown under the first question asked as a refused answer's reason is. */
  problem?: string;
  /** The key of the question to ask first (the refused one), the answers before it kept; else the first. */
  startAt?: string;
  onDone(values: Record<string, string>): void;
  onCancel(): void;
}

export function Wizard({ title, fields, width, height, answers, problem: refused, startAt, onDone, onCancel }: WizardProps) {
  const theme = useTheme();
  const [values, setValues] = useState<Record<string, string>>({ ...answers });
  const [step, setStep] = useState(() => Math.max(0, fields.findIndex((f) => f.key === startAt)));
  const [problem, setProblem] = useState<string | undefined>(refused);
  const field = fields[step]!;

  const submit = (raw: string) => {
    const value = field.hidden ? raw : raw.trim();
    const bad = field.check?.(value, values);
    if (bad) {
      setProblem(bad);
      return;
    }
    setProblem(undefined);
    const next = { ...values, [field.key]: value };
    if (step + 1 >= fields.length) onDone(next);
    else {
      setValues(next);
      setStep(step + 1);
    }
  };

  const rows = wizardRows(height, width, step, field.hint, problem);
  const titleText = fullestFitting(typeof title === 'string' ? [title] : title, width - textWidth(` ${WAY_OUT}`));
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {rows.title ? (
        <Text bold color={theme.accent} wrap="truncate-end">
          {titleText}
          <Text color={theme.muted}>{fittingHints(WIZARD_HINTS, width - textWidth(titleText), ' ')}</Text>
        </Text>
      ) : null}
      {fields.slice(step - rows.answers, step).map((f) => {
        const answer = values[f.key];
        // a hidden or empty answer says so, muted
        const said = f.hidden ? '(hidden)' : answer ? undefined : '(none)';
        const line = answerLine(f.label, said ?? answer ?? '', width);
        return (
          <Text key={f.key} wrap="truncate-end">
            {line.label} {said === undefined ? line.value : <Text color={theme.muted}>{line.value}</Text>}
          </Text>
        );
      })}
      <TextField key={field.key} label={field.label} width={width} hidden={field.hidden} initial={answers?.[field.key] ?? field.initial} hint={rows.hint > 0 ? field.hint : undefined} rows={1 + rows.hint} wayOut={false} onSubmit={submit} onCancel={onCancel} />
      {rows.problem.map((line, i) => (
        <Text key={i} color={theme.error} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
