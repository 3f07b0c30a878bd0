/** The top-level failure screen (A §8): 'Something went wrong', Reload Page, Sign Out and technical details. */
import { Component, type ErrorInfo, type ReactNode } from "react";
import { Button, ButtonLink } from "../../components/ui/button";
import { Card } from "../../components/ui/card";

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Unhandled error", error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <main className="flex min-h-screen items-center justify-center p-6">
        <Card className="w-full max-w-lg" title="Something went wrong">
          <p className="mb-4 text-slate-600">An unexpected error stopped this page. Reloading usually helps.</p>
          <div className="mb-4 flex gap-3">
            <Button onClick={() => window.location.reload()}>Reload Page</Button>
            <ButtonLink variant="outline" href="/auth/logout">
              Sign Out
            </ButtonLink>
          </div>
          <details className="text-sm text-slate-600">
            <summary className="cursor-pointer">Technical details</summary>
            <pre className="mt-2 overflow-auto rounded bg-slate-100 p-2 text-xs">{error.stack ?? error.message}</pre>
          </details>
        </Card>
      </main>
    );
  }
}
