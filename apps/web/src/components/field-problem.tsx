/** What is wrong with a field's value, said under it and announced; nothing when all is well. */
export function FieldProblem({ id, problem }: { id?: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p id={id} className="text-sm text-destructive" role="alert">
      {problem}
    </p>
  );
}
