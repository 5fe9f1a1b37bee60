import type { Message } from '../../core/trajectory';
import { LongText } from './LongText';

function prettyArgs(args: unknown): string {
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

/**
 * One turn. Text is rendered as text (React escapes it), so markdown or HTML in a rollout can never inject
 * markup; whitespace and line breaks are kept.
 */
export function MessageView({ message: m }: { message: Message }) {
  return (
    <li className={`msg role-${m.role}`} aria-label={`${m.role} turn`}>
      <div className="msg-head">
        <span className="role-badge">{m.role}</span>
        {m.name ? <span className="muted"> {m.name}</span> : null}
        {m.toolCallId ? <span className="muted"> · reply to {m.toolCallId}</span> : null}
      </div>
      {m.content ? <LongText className="msg-text" text={m.content} /> : null}
      {m.toolCalls?.map((c, i) => (
        <div key={c.id ?? i} className="tool-call" aria-label={`tool call ${c.name}`}>
          <div className="tool-name">
            ⚙ {c.name}
            {c.id ? <span className="muted"> · {c.id}</span> : null}
          </div>
          <LongText className="tool-args" text={prettyArgs(c.arguments)} />
        </div>
      ))}
    </li>
  );
}
