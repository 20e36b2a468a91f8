import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";

/** A search box and a page number that goes back to 1 whenever the (debounced) search changes. */
export function useSearchPage() {
  const [search, setSearchRaw] = useState("");
  const [q] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const setSearch = (v: string) => {
    setSearchRaw(v);
    setPage(1);
  };
  return { search, setSearch, q, page, setPage };
}
