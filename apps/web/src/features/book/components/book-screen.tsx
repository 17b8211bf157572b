import { useRef, type CSSProperties, type ReactNode } from "react";
import { NotebookIcon, PrinterIcon } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { LoadingState } from "@/components/loading-state";
import { Button } from "@/components/ui/button";
import { useBook } from "@/features/book/api/get-book";
import { BookPages } from "@/features/book/components/book-pages";
import { useImagesReady } from "@/features/book/hooks/use-images-ready";
import type { BookRange } from "@/features/book/utils/book-range";
import { bookMargins } from "@memory-box/contract/book-layout";
import { type Paper, paperSizes, papers, printRules } from "@/features/book/utils/paper";
import { useIntl } from "@/lib/intl";

export interface BookScreenProps {
  /** The book's memories; null when the address names no book. */
  range: BookRange | null;
  paper: Paper;
  onPaper: (paper: Paper) => void;
  /** The way back (the app's "Back to Memories"), shown in the toolbar. */
  back: ReactNode;
  /** The cover's heading; the catalogue's "Our memories" when not given. */
  title?: string;
}

/**
 * A book on screen, as it will print (issue #35, ADR 0069): a toolbar (the way back, the paper,
 * "Print or save as PDF") that printing leaves out, then the pages. The browser's print dialog
 * makes the PDF; the button waits for every photo to load first.
 */
export function BookScreen({ range, paper, onPaper, back, title }: BookScreenProps) {
  const intl = useIntl();
  const { width, height } = paperSizes[paper];
  const sizes = {
    "--book-width": width,
    "--book-height": height,
    "--book-page-height": `calc(${height} - ${bookMargins.top} - ${bookMargins.bottom})`,
  } as CSSProperties;
  return (
    <div className="min-h-svh bg-muted print:bg-transparent" style={sizes}>
      <style>{printRules(paper)}</style>
      {range === null ? (
        <Frame back={back}>
          <EmptyState
            icon={NotebookIcon}
            heading="h1"
            title={intl.formatMessage({ id: "book.invalid.title" })}
            description={intl.formatMessage({ id: "book.invalid.description" })}
          />
        </Frame>
      ) : (
        <BookContent range={range} paper={paper} onPaper={onPaper} back={back} title={title} />
      )}
    </div>
  );
}

function BookContent({ range, paper, onPaper, back, title }: BookScreenProps & { range: BookRange }) {
  const intl = useIntl();
  const book = useBook(range);
  const pages = useRef<HTMLDivElement>(null);
  const ready = useImagesReady(pages, book.data);
  if (book.isPending) {
    return (
      <Frame back={back}>
        <LoadingState shape="memory">{intl.formatMessage({ id: "book.loading" })}</LoadingState>
      </Frame>
    );
  }
  if (book.isError) {
    return (
      <Frame back={back}>
        <EmptyState icon={NotebookIcon} heading="h1" title={intl.formatMessage({ id: "book.error" })}>
          <Button variant="outline" onClick={() => void book.refetch()}>
            {intl.formatMessage({ id: "book.retry" })}
          </Button>
        </EmptyState>
      </Frame>
    );
  }
  if (book.data.memories.length === 0) {
    return (
      <Frame back={back}>
        <EmptyState
          icon={NotebookIcon}
          heading="h1"
          title={
            range.year !== null
              ? intl.formatMessage({ id: "book.empty.year" }, { year: String(range.year) })
              : intl.formatMessage({ id: "book.empty.range" })
          }
          description={intl.formatMessage({ id: "book.empty.description" })}
        />
      </Frame>
    );
  }
  return (
    <>
      <BookToolbar paper={paper} onPaper={onPaper} back={back} ready={ready} />
      <main ref={pages} className="px-3 pb-12 sm:px-6 print:p-0">
        <BookPages range={range} book={book.data} title={title} />
      </main>
    </>
  );
}

function Frame({ back, children }: { back: ReactNode; children: ReactNode }) {
  return (
    <>
      <header className="px-4 py-3 print:hidden">
        <div className="-ms-3">{back}</div>
      </header>
      <main className="mx-auto w-full max-w-2xl px-4 py-8">{children}</main>
    </>
  );
}

/** The book's controls: back, the paper, and print (enabled once every photo has loaded). Not printed. */
function BookToolbar({ paper, onPaper, back, ready }: Omit<BookScreenProps, "range" | "title"> & { ready: boolean }) {
  const intl = useIntl();
  return (
    <header
      aria-label={intl.formatMessage({ id: "book.toolbar.label" })}
      className="sticky top-0 z-10 mb-6 border-b bg-background/95 backdrop-blur print:hidden"
    >
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3">
        <div className="-ms-3">{back}</div>
        <fieldset className="flex items-center gap-4">
          <legend className="sr-only">{intl.formatMessage({ id: "book.toolbar.paper" })}</legend>
          <span aria-hidden="true" className="text-sm font-medium">
            {intl.formatMessage({ id: "book.toolbar.paper" })}
          </span>
          {papers.map((option) => (
            <label key={option} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                className="size-4 accent-primary"
                name="book-paper"
                value={option}
                checked={paper === option}
                onChange={() => onPaper(option)}
              />
              {intl.formatMessage({ id: option === "a4" ? "book.toolbar.a4" : "book.toolbar.letter" })}
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap items-center gap-3 sm:ms-auto">
          <Button disabled={!ready} onClick={() => window.print()}>
            <PrinterIcon aria-hidden="true" />
            {intl.formatMessage({ id: "book.toolbar.print" })}
          </Button>
          <p role="status" className="text-sm text-muted-foreground">
            {intl.formatMessage({ id: ready ? "book.toolbar.hint" : "book.toolbar.preparing" })}
          </p>
        </div>
      </div>
    </header>
  );
}
