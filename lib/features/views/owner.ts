// Whose a saved view is, from the actor a request runs as. A person's views are theirs
// alone; a key's are the key's (API_KEYS keys, which the server cannot tell apart, share
// one owner); in open mode nobody is known, so everyone shares the one "open" owner.
import { actorKey, type Actor } from '@/lib/core/access/decide';

export function viewOwner(actor: Actor): string {
  return actorKey(actor);
}
