import { redirect } from 'next/navigation';

// The list of traces is the home of the app.
export default function Home(): never {
  redirect('/traces');
}
