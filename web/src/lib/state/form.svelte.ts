// A form that sends its fields to the server, as runes: the problems by
// field (errors) and the one above the form (failure), and busy while it
// sends. submit checks in the browser first; the server's refusal goes
// beside the fields it names, else above the form in words. A form that
// words some refusals itself handles them in `refused` (true: handled).
import { failure as asFailure, type ServiceError } from '../services/errors';
import { errorText, hasErrors, serverFieldErrors, type FieldErrors } from '../utilities/forms';

export class Form<K extends string> {
  errors = $state<FieldErrors<K>>({});
  failure = $state('');
  busy = $state(false);

  constructor(
    private readonly labels: { readonly [P in K]: string },
    private readonly refused?: (e: ServiceError) => boolean,
  ) {}

  // submit answers whether send ran and succeeded.
  async submit(check: () => FieldErrors<K>, send: () => Promise<void>): Promise<boolean> {
    if (this.busy) return false;
    this.failure = '';
    this.errors = check();
    if (hasErrors(this.errors)) return false;
    this.busy = true;
    try {
      await send();
      return true;
    } catch (err) {
      const e = asFailure(err);
      if (this.refused?.(e)) return false;
      this.errors = serverFieldErrors(e, this.labels);
      if (!hasErrors(this.errors)) this.failure = errorText(e);
      return false;
    } finally {
      this.busy = false;
    }
  }
}
