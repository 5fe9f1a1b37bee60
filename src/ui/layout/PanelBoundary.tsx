import { Component, type ReactNode } from 'react';
import { panelFailed } from '../../app/panelFailures';

interface Props {
  /** The panel's name, as the user sees it ("Rollout detail"). */
  name: string;
  children: ReactNode;
}

/** A panel that throws while rendering shows why and a way back; the rest of the studio goes on working. */
export class PanelBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error): void {
    console.error(`${this.props.name} failed:`, error);
    panelFailed(this.props.name);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="panel panel-failed" role="alert" aria-label={`${this.props.name} failed`}>
        <p>
          The {this.props.name} panel failed: {String(error.message).slice(0, 300)}. The rest of the studio works.
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Show {this.props.name} again
        </button>
      </section>
    );
  }
}
