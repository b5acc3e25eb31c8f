/**
 * A few questions in a row (add an endpoint: name, URL, format, credential). Answers so far stay
 * visible, hidden ones as "(hidden)"; Esc cancels the whole thing. A field's `check` may refuse an
 * answer with a message, and the question is asked again.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { useTheme } from '../theme.js';
import { TextField } from './TextField.js';
import { fieldLine } from '../field-line.js';

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
  title: string;
  fields: readonly WizardField[];
  width: number;
  onDone(values: Record<string, string>): void;
  onCancel(): void;
}

export function Wizard({ title, fields, width, onDone, onCancel }: WizardProps) {
  const theme = useTheme();
  const [values, setValues] = useState<Record<string, string>>({});
  const [step, setStep] = useState(0);
  const [problem, setProblem] = useState<string | undefined>();
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

  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent}>
        {title} <Text color={theme.muted}>(Enter to confirm each answer, Esc to cancel)</Text>
      </Text>
      {fields.slice(0, step).map((f) => {
        const answer = values[f.key];
        const line = fieldLine(f.label, f.hidden || !answer ? '' : answer, width, 0);
        return (
          <Text key={f.key} wrap="truncate-end">
            {line.label} {f.hidden ? <Text color={theme.muted}>(hidden)</Text> : answer ? line.value : <Text color={theme.muted}>(none)</Text>}
          </Text>
        );
      })}
      <TextField key={field.key} label={field.label} width={width} hidden={field.hidden} initial={field.initial} hint={field.hint} onSubmit={submit} onCancel={onCancel} />
      {problem ? (
        <Text color={theme.error} wrap="truncate-end">
          {problem}
        </Text>
      ) : null}
    </Box>
  );
}
