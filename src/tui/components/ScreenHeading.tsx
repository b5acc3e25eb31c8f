/**
 * A screen's first line: its title, what it shows (the fullest wording that fits after the title),
 * then its key hints that fit whole. Cut at the edge, a narrow terminal read "Service keys 1 acti…"
 * or "Providers c connect…"; the hints left off are under `?`.
 */
import { Text } from 'ink';
import { fullestFitting } from '../fit-wording.js';
import { fittingHints, type Hint } from '../key-hints.js';
import { useTheme } from '../theme.js';
import { textWidth } from '../../util/text-width.js';

export interface ScreenHeadingProps {
  title: string;
  /** What the screen shows, fullest wording first (counts, a window). */
  detail?: readonly string[];
  hints: readonly Hint[];
  width: number;
}

export function ScreenHeading({ title, detail, hints, width }: ScreenHeadingProps) {
  const theme = useTheme();
  const about = detail ? ` ${fullestFitting(detail, Math.max(1, width - textWidth(title) - 1))}` : '';
  const keys = fittingHints(hints, width - textWidth(title + about), detail ? ' · ' : ' ');
  return (
    <Text wrap="truncate-end">
      <Text bold>{title}</Text>
      <Text color={theme.muted}>
        {about}
        {keys}
      </Text>
    </Text>
  );
}
