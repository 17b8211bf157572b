import { useMemo } from "react";
import { useParams, useSearchParams } from "react-router";

import { useBox } from "@/features/box/api/box";
import { BookScreen } from "@/features/book/components/book-screen";
import { bookRangeOf } from "@/features/book/utils/book-range";
import { type Paper, paperOf } from "@/features/book/utils/paper";
import { BackToMemories } from "@/features/memories/components/back-to-memories";

/**
 * `/book/:year` and `/book?from=&to=&tag=` (issue #35, ADR 0069): memories as a print-ready book.
 * The paper chosen is kept in the address (`paper=a4|letter`), so a reload or a shared link prints the same.
 * Its title is the box's name when an owner set one (ADR 0065), the catalogue's "Our memories" otherwise.
 */
export function BookRoute() {
  const { year } = useParams();
  const [search, setSearch] = useSearchParams();
  const range = useMemo(() => bookRangeOf(year, search), [year, search]);
  const paper = paperOf(search.get("paper"), navigator.language);
  const boxName = useBox().data?.name ?? undefined;
  const choosePaper = (next: Paper) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        params.set("paper", next);
        return params;
      },
      { replace: true },
    );
  return <BookScreen range={range} paper={paper} onPaper={choosePaper} back={<BackToMemories />} title={boxName} />;
}
