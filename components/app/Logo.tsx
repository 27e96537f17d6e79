export function Logo() {
  // A fork in the road: the product is about the choices an agent makes.
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" className="text-accent">
      <path d="M10 18V10M10 10L4 3M10 10l6-7" stroke="currentColor" strokeWidth="2.2" fill="none" strokeLinecap="round" />
      <circle cx="10" cy="10" r="2.2" fill="currentColor" />
    </svg>
  );
}
