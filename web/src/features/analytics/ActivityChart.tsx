/** Charts of daily activity (recharts, loaded only with the analytics screens): sent, opened, clicked and replied
 * per day, and human against machine opens. */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DayPoint } from "./api";

const COLORS = { sent: "#2563eb", opened: "#16a34a", clicked: "#9333ea", replied: "#ea580c", human: "#16a34a", machine: "#94a3b8" };

/** `YYYY-MM-DD` shortened to `MM-DD` on the axis. */
const shortDate = (date: string) => date.slice(5);

export default function ActivityChart({ days }: { days: DayPoint[] }) {
  const empty = days.every((day) => day.sent + day.opened + day.clicked + day.replied + day.machineOpens === 0);
  if (empty) {
    return <p className="text-sm text-slate-600">No activity in the last {days.length} days.</p>;
  }
  return (
    <div className="grid gap-6 md:grid-cols-2" data-testid="activity-charts">
      <figure>
        <figcaption className="mb-2 text-sm font-medium">Sent, opened, clicked and replied per day</figcaption>
        <ResponsiveContainer width="100%" height={240}>
          <LineChart data={days}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} />
            <YAxis allowDecimals={false} fontSize={12} />
            <Tooltip />
            <Legend />
            <Line type="monotone" dataKey="sent" name="Sent" stroke={COLORS.sent} dot={{ r: 2 }} isAnimationActive={false} />
            <Line type="monotone" dataKey="opened" name="Opened" stroke={COLORS.opened} dot={{ r: 2 }} isAnimationActive={false} />
            <Line type="monotone" dataKey="clicked" name="Clicked" stroke={COLORS.clicked} dot={{ r: 2 }} isAnimationActive={false} />
            <Line type="monotone" dataKey="replied" name="Replied" stroke={COLORS.replied} dot={{ r: 2 }} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </figure>
      <figure>
        <figcaption className="mb-2 text-sm font-medium">Human and machine opens per day</figcaption>
        <ResponsiveContainer width="100%" height={240}>
          <BarChart data={days}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} />
            <YAxis allowDecimals={false} fontSize={12} />
            <Tooltip />
            <Legend />
            <Bar dataKey="humanOpens" name="Human opens" stackId="opens" fill={COLORS.human} isAnimationActive={false} />
            <Bar dataKey="machineOpens" name="Machine opens (proxies, scanners)" stackId="opens" fill={COLORS.machine} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
