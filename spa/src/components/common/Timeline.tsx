import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** One move of a document's workflow, as every document's payload carries it (core.workflow.WorkflowEventOut). */
export interface TimelineEvent {
  id: number;
  action: string;
  from_status: string;
  to_status: string;
  by_name: string;
  at: string;
  details: Record<string, unknown>;
}

const words = (s: string) => s.replace(/_/g, ' ');

/** A document's timeline, oldest first: the move, from → to, when and by whom, and the reason given.
 * `note` adds a document's own word about a move (e.g. a bill's overridden match). */
export function Timeline({ events, note }: { events: TimelineEvent[]; note?: (e: TimelineEvent) => string }) {
  if (!events.length) return <Typography variant="body2" color="text.secondary">No moves yet.</Typography>;
  return (
    <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
      {events.map((e) => (
        <li key={e.id}>
          <Typography variant="body2">
            {words(e.action)}: {e.from_status ? `${words(e.from_status)} → ` : ''}
            {words(e.to_status)}
            {note ? note(e) : ''}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {new Date(e.at).toLocaleString()} {e.by_name ? `· ${e.by_name}` : ''}
            {typeof e.details.reason === 'string' && e.details.reason ? ` · ${e.details.reason}` : ''}
          </Typography>
        </li>
      ))}
    </Box>
  );
}
