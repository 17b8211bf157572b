import type { Memory, Photo } from "@memory-box/contract";
import { bookPhotoHeights, bookPhotos } from "@memory-box/contract/book-layout";
import { type ReactNode, useEffect } from "react";

import type { Book } from "@/features/book/api/get-book";
import { bookAuthors, bookMonths } from "@/features/book/utils/book-pages";
import { formatBookDay, formatBookMonth, formatNames } from "@/features/book/utils/book-dates";
import type { BookRange } from "@/features/book/utils/book-range";
import { type AppIntl, useIntl } from "@/lib/intl";
import { cn } from "@/lib/utils";

/**
 * One sheet of the book. On screen a sheet of paper (its width; in the screen's theme) with room
 * around its text; printed, the page's box itself (`@page` gives the margins), each
 * starting a new page. A memory's long text runs on past its sheet onto the next pages.
 */
function Sheet({ children, className, label }: { children: ReactNode; className?: string; label?: string }) {
  return (
    <section
      aria-label={label}
      data-slot="book-sheet"
      className={cn(
        "mx-auto w-full max-w-[var(--book-width)] bg-card px-5 py-8 text-card-foreground shadow-md sm:px-12 sm:py-14",
        "print:max-w-none print:break-before-page print:bg-transparent print:p-0 print:shadow-none print:first:break-before-auto",
        className,
      )}
    >
      {children}
    </section>
  );
}

/**
 * A book's pages (issue #35, ADR 0069): the cover (`title`, the dates, who wrote it), the contents
 * by month, then each memory on its own page, oldest first. `title` is the cover's heading; the
 * catalogue's "Our memories" until the box has a name to give it.
 */
export function BookPages({ range, book, title }: { range: BookRange; book: Book; title?: string }) {
  const intl = useIntl();
  const months = bookMonths(book.memories);
  const authors = bookAuthors(book.memories);
  const heading = title ?? intl.formatMessage({ id: "book.cover.title" });
  const dates = coverDates(range, intl);
  // The page's title names the file "Save as PDF" offers ("Our memories 1990.pdf").
  useEffect(() => {
    const before = document.title;
    document.title = [heading, dates].filter(Boolean).join(" ");
    return () => {
      document.title = before;
    };
  }, [heading, dates]);
  return (
    <div className="flex flex-col gap-8 print:block" data-testid="book-pages">
      <Sheet className="flex min-h-[calc(var(--book-height)*0.6)] flex-col items-center justify-center gap-6 text-center print:min-h-[calc(var(--book-page-height)*0.9)]">
        <h1 className="font-heading text-4xl font-semibold text-balance sm:text-5xl">{heading}</h1>
        <p className="font-heading text-2xl sm:text-3xl">{dates}</p>
        {range.tags.length > 0 && (
          <p className="text-muted-foreground">
            {intl.formatMessage({ id: "book.cover.tags" }, { tags: formatNames(range.tags, intl) })}
          </p>
        )}
        {authors.length > 0 && <p className="text-lg">{formatNames(authors, intl)}</p>}
      </Sheet>
      <Sheet label={intl.formatMessage({ id: "book.contents.title" })}>
        <h2 className="mb-6 font-heading text-3xl font-semibold">{intl.formatMessage({ id: "book.contents.title" })}</h2>
        <p className="mb-6 text-muted-foreground">
          {intl.formatMessage({ id: "book.contents.count" }, { count: book.memories.length })}
        </p>
        <ol className="flex flex-col gap-5">
          {months.map(({ month, memories }) => (
            <li key={month} className="break-inside-avoid">
              <h3 className="mb-1 font-heading text-xl font-semibold">{formatBookMonth(month, range.year === null, intl)}</h3>
              <ol className="flex flex-col gap-0.5">
                {memories.map((memory) => (
                  <li key={memory.id} className="flex gap-3">
                    <span className="w-8 shrink-0 text-end text-muted-foreground tabular-nums">
                      {Number(memory.memory_date!.slice(8, 10))}
                    </span>
                    <span>{memory.title}</span>
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ol>
        {book.undated > 0 && (
          <p className="mt-8 text-sm text-muted-foreground">
            {intl.formatMessage({ id: "book.contents.undated" }, { count: book.undated })}
          </p>
        )}
      </Sheet>
      {book.memories.map((memory) => (
        <Sheet key={memory.id}>
          <MemoryPage memory={memory} />
        </Sheet>
      ))}
    </div>
  );
}

/** The cover's dates: the year, or the range's days ("March 1, 2025 – August 31, 2025", "From…", "Until…"). */
function coverDates(range: BookRange, intl: AppIntl): string {
  if (range.year !== null) return String(range.year);
  const from = range.from && formatBookDay(range.from, intl);
  const to = range.to && formatBookDay(range.to, intl);
  if (from && to) return intl.formatMessage({ id: "book.cover.range" }, { from, to });
  if (from) return intl.formatMessage({ id: "book.cover.since" }, { from });
  if (to) return intl.formatMessage({ id: "book.cover.until" }, { to });
  return "";
}

/** A memory's page: its date, title, place and author, its best photos, then its words in full. */
function MemoryPage({ memory }: { memory: Memory }) {
  const intl = useIntl();
  const photos = bookPhotos(memory);
  const name = memory.profiles?.display_name.trim();
  const details = [memory.place?.name, name ? intl.formatMessage({ id: "book.memory.by" }, { name }) : null].filter(Boolean);
  return (
    <article className="flex flex-col gap-4">
      <header className="flex flex-col gap-1 break-after-avoid">
        <p className="text-sm tracking-wide text-muted-foreground uppercase">{formatBookDay(memory.memory_date!, intl)}</p>
        <h2 className="font-heading text-3xl font-semibold text-balance">{memory.title}</h2>
        {details.length > 0 && <p className="text-muted-foreground">{details.join(" · ")}</p>}
      </header>
      {photos.length > 0 && <BookPhotos photos={photos} title={memory.title} />}
      {memory.content && <p className="leading-relaxed whitespace-pre-line">{memory.content}</p>}
    </article>
  );
}

/**
 * Up to four photos, the cover first: one alone up to 60% of the page's height, more two by two
 * (two side by side taller, three or four in two rows; of three, the cover spans the first row). The
 * display copy (`url`, full size; a video's poster still), never the thumbnail: it is printed.
 * Loaded at once (no lazy loading: the print would catch them missing), never split across pages.
 */
function BookPhotos({ photos, title }: { photos: readonly Photo[]; title: string }) {
  const intl = useIntl();
  const alone = photos.length === 1;
  return (
    <div className={cn("grid gap-3", alone ? "grid-cols-1" : "grid-cols-2")}>
      {photos.map((photo, index) => (
        <img
          key={photo.id}
          src={photo.url}
          alt={intl.formatMessage({ id: "book.memory.photo" }, { title, number: index + 1 })}
          width={photo.width}
          height={photo.height}
          loading="eager"
          className={cn("w-full break-inside-avoid object-contain", !alone && photos.length === 3 && index === 0 && "col-span-2")}
          // The heights the archive's print view gives its photos too (bookPhotoHeights).
          style={
            alone
              ? { maxHeight: `calc(var(--book-page-height) * ${bookPhotoHeights.alone})` }
              : {
                  height: `calc(var(--book-page-height) * ${photos.length === 2 ? bookPhotoHeights.two : bookPhotoHeights.more})`,
                }
          }
        />
      ))}
    </div>
  );
}
